resource "terraform_data" "n" {
  input = 0.1
}
