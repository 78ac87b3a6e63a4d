locals {
  l = toset(["<<EOT"])
}

resource "terraform_data" "r0" {
  count = 2
  input = { from_local = local.l, v = false }
}

resource "terraform_data" "r1" {
  input = 1e+21
}

resource "terraform_data" "r2" {
  input = ""
  lifecycle {
    create_before_destroy = true
  }
}

output "o0" {
  value = [null, ["null", "multi\n  indented\n\tline\n"]]
}

output "o1" {
  value = { "0" = {  }, "with space" = toset(["[]"]) }
}

output "o2" {
  value = { "ключ" = { "k-1" = null, "0" = sensitive(null), "ключ" = "null" }, "a" = { a = "[]", name = "ünïcödé ✓", size = "ünïcödé ✓", count_ = false }, "with space" = toset(["a\r\nb\r\n"]) }
  sensitive = true
}
