resource "terraform_data" "e" {
  input = { a = "y", b = ["", "z"] }
}
