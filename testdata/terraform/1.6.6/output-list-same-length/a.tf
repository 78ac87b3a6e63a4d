output "o" {
  value = ["a", "b"]
}
