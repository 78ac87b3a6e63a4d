resource "terraform_data" "e" {
  input = ""
  triggers_replace = ""
}
