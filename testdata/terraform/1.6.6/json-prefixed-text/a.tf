resource "terraform_data" "j" {
  input = "{\"a\":1}\nmore\n"
}
