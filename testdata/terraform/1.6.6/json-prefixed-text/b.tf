resource "terraform_data" "j" {
  input = "[1, 2] and more"
}
