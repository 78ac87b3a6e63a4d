locals {
  l = toset([])
}

resource "terraform_data" "r0" {
  input = { from_local = local.l, v = 42 }
}

resource "terraform_data" "n2" {
  input = "x"
}

module "m" {
  source = "./mod"
  value  = "[1, 2, 3]x"
  extra  = true
}
