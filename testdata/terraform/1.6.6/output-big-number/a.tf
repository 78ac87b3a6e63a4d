output "o" {
  value = 9007199254740993
}
