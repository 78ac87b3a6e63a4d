# Terragrunt runs Terraform in this folder; its configuration is main.tf beside it.
