output "o" {
  value = "x"
}
