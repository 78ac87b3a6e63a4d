locals {
  l = toset([])
}

resource "terraform_data" "r0" {
  input = { from_local = local.l, v = 42 }
}

module "m" {
  source = "./mod"
  value  = "[1, 2, 3]"
  extra  = true
}
