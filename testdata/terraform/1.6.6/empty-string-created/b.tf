resource "terraform_data" "e" {
  input = ""
}
resource "terraform_data" "f" {
  input = ""
}
