resource "terraform_data" "e" {
  input = { a = "", b = ["", "x"] }
}
