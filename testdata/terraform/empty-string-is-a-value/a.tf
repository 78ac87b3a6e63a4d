resource "terraform_data" "r0" {
  input = {  }
}

resource "terraform_data" "r1" {
  input = ""
}

resource "terraform_data" "r2" {
  input = true
}

resource "terraform_data" "r3" {
  input = toset(["<<EOT", "true"])
}

output "o0" {
  value = null
}

output "o1" {
  value = terraform_data.r0.output
}

output "o2" {
  value = null
  sensitive = true
}
