resource "terraform_data" "l" {
  input = ["c", "a", "b"]
}
