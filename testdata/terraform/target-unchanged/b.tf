locals {
  l = { "0" = "null", "b" = {  }, "with space" = {  } }
}

resource "terraform_data" "r0" {
  input = { v = { "x.y" = { tags = "line1\nline2\nline3\n" }, "b" = { tags = "<<EOT", zone = 0 } } }
}

resource "terraform_data" "r1" {
  input = ["true", ["cr\rinside", "percent %%{x}"]]
}

resource "terraform_data" "r2" {
  input = ["[1, 2, 3]", toset(["line1\nline2\nline3\n", "multi\n  indented\n\tline\n", "{}"]), "null", "line1\nline2"]
  triggers_replace = sensitive({ "zone" = toset(["[]", "dollar $${not_interp}"]), "id" = { "name" = "{\"a\":1,\"b\":[1,2]}", "x.y" = null } })
}

resource "terraform_data" "imp9" {
}

output "o1" {
  value = terraform_data.r0.output
  sensitive = true
}

output "o2" {
  value = ["{\"nested\":{\"k\":\"v\"},\"n\":null}", "true"]
}

import {
  to = terraform_data.imp9
  id = "import-imp9"
}

check "health" {
  assert {
    condition     = length(terraform_data.r0.id) > 0
    error_message = "no id"
  }
}
