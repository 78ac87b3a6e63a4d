output "s" {
  value = ""
  sensitive = true
}
