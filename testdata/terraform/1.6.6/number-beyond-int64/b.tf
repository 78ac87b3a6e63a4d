resource "terraform_data" "n" {
  input = 1e21
}
