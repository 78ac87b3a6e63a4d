resource "terraform_data" "m" {
  input = "one\ntwo\n"
}
