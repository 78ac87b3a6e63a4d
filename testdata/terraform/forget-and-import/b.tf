resource "terraform_data" "r0" {
  input = 0
  triggers_replace = "percent %%{x}"
}

resource "terraform_data" "r1" {
  input = "{\"a\":1,\"b\":[1,2]}"
}

resource "terraform_data" "n4" {
  input = true
  lifecycle {
    replace_triggered_by = [terraform_data.r0]
  }
}

resource "terraform_data" "imp4" {
}

output "o0" {
  value = "日本語"
}

output "o2" {
  value = ""
  sensitive = true
}

removed {
  from = terraform_data.r2

  lifecycle {
    destroy = false
  }
}

import {
  to = terraform_data.imp4
  id = "import-imp4"
}

check "health" {
  assert {
    condition     = length(terraform_data.r0.id) > 0
    error_message = "no id"
  }
}
