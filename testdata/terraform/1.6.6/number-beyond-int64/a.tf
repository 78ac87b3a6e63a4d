resource "terraform_data" "n" {
  input = 12345678901234567890
}
