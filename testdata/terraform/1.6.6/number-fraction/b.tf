resource "terraform_data" "n" {
  input = 3.5
}
