resource "terraform_data" "n" {
  input = 9007199254740993
}
