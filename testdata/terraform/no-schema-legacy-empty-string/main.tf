terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "6.0.0"
    }
  }
}
provider "google" {
  project = "my-project"
  region  = "europe-west1"
  zone    = "europe-west1-b"
}
resource "google_compute_instance" "vm" {
  name         = "vm-1"
  machine_type = "e2-standard-4"
  labels       = { team = "data" }
  metadata     = { enable-oslogin = "TRUE" }
  tags         = ["web", "ssh"]

  boot_disk {
    initialize_params {
      image = "ubuntu-os-cloud/ubuntu-2404-lts"
      size  = 50
    }
  }

  network_interface {
    network = "default"
    access_config {}
  }

  scheduling {
    automatic_restart   = true
    on_host_maintenance = "TERMINATE"
  }

  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 1
  }

  service_account {
    scopes = ["cloud-platform"]
  }
}
