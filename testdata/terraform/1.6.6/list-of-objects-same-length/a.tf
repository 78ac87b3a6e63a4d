resource "terraform_data" "l" {
  input = [{ k = "a" }, { k = "b" }]
}
