output "s" {
  value = "x"
  sensitive = true
}
