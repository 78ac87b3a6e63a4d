resource "terraform_data" "m" {
  input = "one\nnew\ntwo\n"
}
