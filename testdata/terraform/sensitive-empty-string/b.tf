locals {
  l = toset(["<<EOT"])
}

resource "terraform_data" "r0" {
  count = 2
  input = { from_local = local.l, v = true, enabled = false }
}

resource "terraform_data" "r1" {
  input = null
}

resource "terraform_data" "r2" {
  input = "\nadded"
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "n8" {
  input = null
  triggers_replace = sensitive("")
}

output "o1" {
  value = { "0" = {  }, "with space" = toset(["[]"]) }
}

output "o2" {
  value = { "ключ" = { "k-1" = null, "0" = sensitive(null), "ключ" = "null" }, "a" = { a = "[]", name = "ünïcödé ✓", size = "ünïcödé ✓", count_ = false }, "with space" = toset(["a\r\nb\r\n"]) }
  sensitive = true
}

output "p4" {
  value = terraform_data.n8.output
  sensitive = true
}
