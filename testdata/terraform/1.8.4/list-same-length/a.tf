resource "terraform_data" "l" {
  input = ["a", "b", "c"]
}
