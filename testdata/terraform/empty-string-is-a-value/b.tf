resource "terraform_data" "r0" {
  input = {  }
}

resource "terraform_data" "r1" {
  input = "x"
}

resource "terraform_data" "r2" {
  input = false
}

resource "terraform_data" "r3" {
  input = { "Z" = false }
}

output "o0" {
  value = null
}

output "o1" {
  value = terraform_data.r0.output
}

output "o2" {
  value = terraform_data.r2.output
}
