resource "terraform_data" "e" {
  input = "x"
}
