resource "terraform_data" "l" {
  input = ["c", "d"]
}
