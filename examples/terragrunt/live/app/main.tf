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
  tags          = { Name = "web", env = "prod" }

  root_block_device {
    volume_size = 50
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
