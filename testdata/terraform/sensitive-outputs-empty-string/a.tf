resource "terraform_data" "r0" {
  input = { "a" = toset(["dollar $${not_interp}"]) }
}

resource "terraform_data" "r1" {
  input = toset(["[]", "cr\rinside"])
}

output "o0" {
  value = ""
  sensitive = true
}

output "o1" {
  value = sensitive("say \"hi\"")
  sensitive = true
}

output "o2" {
  value = 3.5
}
