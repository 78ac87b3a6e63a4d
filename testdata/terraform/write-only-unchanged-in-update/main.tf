terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "6.0.0"
    }
  }
}
provider "aws" {
  region = "us-east-1"
}
resource "aws_instance" "web" {
  ami           = "ami-0abcdef1234567890"
  instance_type = "m5.xlarge"
  user_data     = "#!/bin/sh\necho hello\n"
  tags          = { Name = "web", env = "staging", team = "x" }

  root_block_device {
    volume_size = 40
    volume_type = "gp3"
  }

  ebs_block_device {
    device_name = "/dev/sdf"
    volume_size = 100
  }

  metadata_options {
    http_tokens = "required"
  }
}

resource "aws_ebs_volume" "data" {
  availability_zone = "us-east-1a"
  size              = 80
  type              = "gp3"
  tags              = { Name = "data" }
}

resource "aws_db_instance" "db" {
  instance_class      = "db.t3.micro"
  allocated_storage   = 20
  engine              = "postgres"
  username            = "app"
  password            = "correct horse"
  password_wo         = "new secret"
  password_wo_version = 2
  skip_final_snapshot = true
}
