output "o" {
  value = ""
}
