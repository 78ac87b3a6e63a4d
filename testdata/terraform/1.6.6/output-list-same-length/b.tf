output "o" {
  value = ["a", "c"]
}
