resource "terraform_data" "r0" {
  input = null
  triggers_replace = "percent %%{x}"
}

resource "terraform_data" "r1" {
  input = "{\"a\":1,\"b\":[1,2]}"
}

resource "terraform_data" "r2" {
  input = []
}

output "o0" {
  value = "日本語"
}

output "o1" {
  value = [toset(["  leading and trailing  "])]
  sensitive = true
}

output "o2" {
  value = ""
}
