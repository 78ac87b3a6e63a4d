locals {
  l = { "0" = "null", "b" = {  }, "with space" = {  } }
}

resource "terraform_data" "r0" {
  input = { from_local = local.l, v = { "x.y" = { tags = "line1\nline2\nline3\n" } } }
}

resource "terraform_data" "r1" {
  input = ["true", ["cr\rinside", "percent %%{x}"]]
}

resource "terraform_data" "r2" {
  input = ["[1, 2, 3]", "null", "line1\nline2"]
  triggers_replace = sensitive({ "zone" = toset(["[]", "dollar $${not_interp}"]), "id" = { "name" = "{\"a\":1,\"b\":[1,2]}", "x.y" = null } })
}

output "o0" {
  value = "back\\slash"
  sensitive = true
}

output "o1" {
  value = terraform_data.r0.output
  sensitive = true
}

output "o2" {
  value = ["{\"nested\":{\"k\":\"v\"},\"n\":null}", "true"]
}
