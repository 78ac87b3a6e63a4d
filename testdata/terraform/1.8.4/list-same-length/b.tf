resource "terraform_data" "l" {
  input = ["a", "x", "c"]
}
