resource "terraform_data" "r0" {
  count = 4
  input = { "with space" = 0, "b" = { "id" = sensitive({ "ключ" = 12345678901234567890, "zone" = "" }) } }
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
  value = toset(["cr\rinside", "true", "{}"])
}

output "o1" {
  value = toset(["<<EOT", "{\"a\":1,\"b\":[1,2]}"])
}

output "o2" {
  value = terraform_data.r2.output
}

output "p5" {
  value = "日本語"
}
