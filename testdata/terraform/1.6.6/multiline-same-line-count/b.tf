resource "terraform_data" "m" {
  input = "one\nTWO\nthree\n"
}
