resource "terraform_data" "r0" {
  input = null
}

resource "terraform_data" "r1" {
  input = ""
}

resource "terraform_data" "r2" {
  input = toset(["a\r\nb\r\n", "percent %%{x}"])
}

resource "terraform_data" "r3" {
  input = toset(["multi\n  indented\n\tline\n", "null", "{\"nested\":{\"k\":\"v\"},\"n\":null}"])
}
