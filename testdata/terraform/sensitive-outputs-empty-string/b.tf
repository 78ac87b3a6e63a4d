resource "terraform_data" "r0" {
  input = { "a" = toset(["dollar $${not_interp}"]) }
}

resource "terraform_data" "imp5" {
}

output "o0" {
  value = []
  sensitive = true
}

output "o1" {
  value = false
}

output "o2" {
  value = 3.5
  sensitive = true
}

import {
  to = terraform_data.imp5
  id = "import-imp5"
}
