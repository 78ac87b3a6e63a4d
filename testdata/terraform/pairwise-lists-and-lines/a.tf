resource "terraform_data" "r0" {
  count = 3
  input = { "with space" = 0, "zone" = [], "b" = { "id" = sensitive({ "ключ" = 12345678901234567890, "zone" = "" }) } }
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "r1" {
  input = null
}

resource "terraform_data" "r2" {
  input = true
}

output "o0" {
  value = ["multi\n  indented\n\tline\n", "{\"a\":1,\"b\":[1,2]}", "[1, 2, 3]"]
}

output "o1" {
  value = terraform_data.r1.output
}

output "o2" {
  value = terraform_data.r2.output
}
