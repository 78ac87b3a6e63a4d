#!/usr/bin/env python3
"""Writes testdata/carbon/coverage.json: one created resource per resource type of the
coverage work (docs/mappings.md, "Coverage"), for tests/coverage.rs. Run from the crate root:
    python3 testdata/carbon/make_coverage.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "demo"))
from make_plan import AWS, GOOGLE, R, build, write  # noqa: E402

CFG = {
    "aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"constant_value": "us-east-1"}}},
    "google": {"name": "google", "full_name": GOOGLE, "expressions": {"region": {"constant_value": "europe-west1"}}},
    "azurerm": {"name": "azurerm", "full_name": "registry.terraform.io/hashicorp/azurerm", "expressions": {}},
}


def ref(addr):
    return {"references": [addr + ".arn", addr]}


def c(address, provider, after, expressions=None):
    type_, name = address.split(".")[:2]
    return R(address, type_, name, provider, ["create"], after=after, after_unknown={"id": True},
             expressions=expressions)


def coverage():
    rs = [
        # --- AWS
        c("aws_lambda_function.fn", "aws", {"function_name": "fn", "memory_size": 1769, "architectures": ["arm64"]}),
        c("aws_lambda_function.small", "aws", {"function_name": "small", "memory_size": 128, "architectures": ["x86_64"]}),
        c("aws_ecs_task_definition.app", "aws", {"family": "app", "cpu": "512", "memory": "1024",
                                                 "requires_compatibilities": ["FARGATE"], "network_mode": "awsvpc"}),
        c("aws_ecs_service.app", "aws", {"name": "app", "launch_type": "FARGATE", "desired_count": 3},
          {"task_definition": ref("aws_ecs_task_definition.app")}),
        c("aws_ecs_service.on_ec2", "aws", {"name": "on-ec2", "launch_type": "EC2", "desired_count": 2},
          {"task_definition": ref("aws_ecs_task_definition.app")}),
        c("aws_ec2_fleet.dev", "aws", {"type": "maintain", "launch_template_config": [
            {"launch_template_specification": [{"launch_template_id": "lt-1", "version": "1"}],
             "override": [{"instance_type": "m5.large"}]}],
            "target_capacity_specification": [{"default_target_capacity_type": "on-demand", "total_target_capacity": 4}]}),
        c("aws_spot_fleet_request.batch", "aws", {"iam_fleet_role": "arn:aws:iam::1:role/f", "target_capacity": 3,
                                                 "launch_specification": [{"ami": "ami-1", "instance_type": "m5.large"}]}),
        c("aws_rds_cluster.aurora", "aws", {"cluster_identifier": "aurora", "engine": "aurora-postgresql"}),
        c("aws_rds_cluster.multi_az", "aws", {"cluster_identifier": "maz", "engine": "postgres",
                                              "db_cluster_instance_class": "db.r6gd.large", "allocated_storage": 100, "storage_type": "io1"}),
        c("aws_docdb_cluster_instance.doc", "aws", {"identifier": "doc", "instance_class": "db.r5.large"}),
        c("aws_neptune_cluster_instance.graph", "aws", {"identifier": "graph", "instance_class": "db.r5.large"}),
        c("aws_elasticache_replication_group.redis", "aws", {"replication_group_id": "redis", "node_type": "cache.r6g.large",
                                                              "num_node_groups": 2, "replicas_per_node_group": 1}),
        c("aws_memorydb_cluster.mem", "aws", {"name": "mem", "node_type": "db.r6g.large", "num_shards": 2, "num_replicas_per_shard": 1}),
        c("aws_dms_replication_instance.dms", "aws", {"replication_instance_id": "dms", "replication_instance_class": "dms.t3.medium",
                                                       "allocated_storage": 100, "multi_az": True}),
        c("aws_mq_broker.mq", "aws", {"broker_name": "mq", "host_instance_type": "mq.m5.large", "deployment_mode": "ACTIVE_STANDBY_MULTI_AZ"}),
        c("aws_redshift_cluster.dw", "aws", {"cluster_identifier": "dw", "node_type": "dc2.large", "number_of_nodes": 2}),
        c("aws_redshift_cluster.ra3", "aws", {"cluster_identifier": "ra3", "node_type": "ra3.xlplus", "number_of_nodes": 2}),
        c("aws_opensearch_domain.search", "aws", {"domain_name": "search",
            "cluster_config": [{"instance_type": "r6g.large.search", "instance_count": 3, "dedicated_master_enabled": True,
                                "dedicated_master_type": "m6g.large.search", "dedicated_master_count": 3, "warm_enabled": False}],
            "ebs_options": [{"ebs_enabled": True, "volume_size": 100, "volume_type": "gp3"}]}),
        c("aws_elasticsearch_domain.legacy", "aws", {"domain_name": "legacy",
            "cluster_config": [{"instance_type": "m5.large.elasticsearch", "instance_count": 2, "dedicated_master_enabled": False}],
            "ebs_options": [{"ebs_enabled": True, "volume_size": 50, "volume_type": "gp2"}]}),
        c("aws_msk_cluster.kafka", "aws", {"cluster_name": "kafka", "number_of_broker_nodes": 3,
            "broker_node_group_info": [{"instance_type": "kafka.m5.large", "storage_info": [{"ebs_storage_info": [{"volume_size": 1000}]}]}]}),
        c("aws_emr_cluster.emr", "aws", {"name": "emr",
            "master_instance_group": [{"instance_type": "m5.xlarge", "instance_count": 1, "ebs_config": [{"size": 32, "type": "gp2", "volumes_per_instance": 1}]}],
            "core_instance_group": [{"instance_type": "r5.2xlarge", "instance_count": 3, "ebs_config": [{"size": 64, "type": "gp2", "volumes_per_instance": 2}]}]}),
        c("aws_emr_instance_group.task", "aws", {"name": "task", "instance_type": "c5.xlarge", "instance_count": 4}),
        c("aws_fsx_lustre_file_system.scratch", "aws", {"storage_capacity": 1200, "deployment_type": "SCRATCH_2"}),
        c("aws_fsx_windows_file_system.win", "aws", {"storage_capacity": 2000, "storage_type": "HDD", "deployment_type": "MULTI_AZ_1"}),
        c("aws_fsx_ontap_file_system.ontap", "aws", {"storage_capacity": 1024, "deployment_type": "SINGLE_AZ_1"}),
        c("aws_fsx_openzfs_file_system.zfs", "aws", {"storage_capacity": 64, "deployment_type": "SINGLE_AZ_1"}),
        c("aws_s3_bucket.assets", "aws", {"bucket": "assets"}),
        c("aws_efs_file_system.shared", "aws", {"creation_token": "shared"}),
        c("aws_dynamodb_table.t", "aws", {"name": "t", "billing_mode": "PAY_PER_REQUEST"}),
        # no shipped mapping: unsupported (tests/carbon.rs ignores it with a user mapping dir)
        c("aws_sagemaker_endpoint.ep", "aws", {"name": "ep"}),
        # --- GCP
        c("google_cloud_run_v2_service.api", "google", {"name": "api", "location": "europe-west1",
            "template": [{"containers": [{"image": "x", "resources": [{"limits": {"cpu": "2", "memory": "1Gi"}}]}],
                          "scaling": [{"min_instance_count": 2}]}]}),
        c("google_cloud_run_v2_service.scale_to_zero", "google", {"name": "zero", "location": "europe-west1",
            "template": [{"containers": [{"image": "x"}]}]}),
        c("google_cloud_run_service.v1", "google", {"name": "v1", "location": "europe-west1",
            "template": [{"metadata": [{"annotations": {"autoscaling.knative.dev/minScale": "1"}}],
                          "spec": [{"containers": [{"image": "x", "resources": [{"limits": {"cpu": "1000m", "memory": "512Mi"}}]}]}]}]}),
        c("google_cloudfunctions2_function.fn", "google", {"name": "fn", "location": "europe-west1",
            "service_config": [{"available_memory": "1Gi", "min_instance_count": 1}]}),
        c("google_cloudfunctions_function.gen1", "google", {"name": "gen1", "region": "europe-west1", "available_memory_mb": 512}),
        c("google_dataproc_cluster.spark", "google", {"name": "spark", "region": "europe-west1",
            "cluster_config": [{"master_config": [{"num_instances": 1, "machine_type": "n2-standard-4", "disk_config": [{"boot_disk_size_gb": 100, "boot_disk_type": "pd-ssd"}]}],
                                "worker_config": [{"num_instances": 2, "machine_type": "n2-standard-4", "disk_config": [{"boot_disk_size_gb": 500, "boot_disk_type": "pd-standard"}]}],
                                "preemptible_worker_config": [{"num_instances": 1}]}]}),
        c("google_memcache_instance.cache", "google", {"name": "cache", "region": "europe-west1", "node_count": 2,
            "node_config": [{"cpu_count": 1, "memory_size_mb": 1024}]}),
        c("google_redis_instance.cache", "google", {"name": "cache", "region": "europe-west1", "tier": "STANDARD_HA", "memory_size_gb": 5}),
        c("google_alloydb_instance.primary", "google", {"instance_id": "primary", "instance_type": "PRIMARY",
            "machine_config": [{"cpu_count": 4}]}, {"cluster": ref("google_alloydb_cluster.main")}),
        c("google_filestore_instance.nfs", "google", {"name": "nfs", "location": "europe-west1-b", "tier": "BASIC_HDD",
            "file_shares": [{"name": "share", "capacity_gb": 1024}]}),
        c("google_storage_bucket.assets", "google", {"name": "assets", "location": "EU"}),
        c("google_bigtable_instance.bt", "google", {"name": "bt", "cluster": [{"cluster_id": "c", "num_nodes": 3, "storage_type": "SSD"}]}),
        c("google_spanner_instance.sp", "google", {"name": "sp", "config": "regional-europe-west1", "num_nodes": 1}),
        # --- Azure
        c("azurerm_mssql_server.sql", "azurerm", {"name": "sql", "location": "westeurope"}),
        c("azurerm_mssql_database.gp", "azurerm", {"name": "gp", "sku_name": "GP_Gen5_2", "max_size_gb": 32},
          {"server_id": {"references": ["azurerm_mssql_server.sql.id", "azurerm_mssql_server.sql"]}}),
        c("azurerm_mssql_database.bc", "azurerm", {"name": "bc", "sku_name": "BC_Gen5_4", "max_size_gb": 100},
          {"server_id": {"references": ["azurerm_mssql_server.sql.id", "azurerm_mssql_server.sql"]}}),
        c("azurerm_mssql_database.dtu", "azurerm", {"name": "dtu", "sku_name": "S0"},
          {"server_id": {"references": ["azurerm_mssql_server.sql.id", "azurerm_mssql_server.sql"]}}),
        c("azurerm_mssql_elasticpool.pool", "azurerm", {"name": "pool", "location": "westeurope", "max_size_gb": 50,
            "sku": [{"name": "GP_Gen5", "tier": "GeneralPurpose", "family": "Gen5", "capacity": 4}]}),
        c("azurerm_postgresql_flexible_server.pg", "azurerm", {"name": "pg", "location": "westeurope", "sku_name": "GP_Standard_D2s_v3",
            "storage_mb": 32768, "high_availability": [{"mode": "ZoneRedundant"}]}),
        c("azurerm_mysql_flexible_server.my", "azurerm", {"name": "my", "location": "westeurope", "sku_name": "B_Standard_B1ms"}),
        c("azurerm_service_plan.plan", "azurerm", {"name": "plan", "location": "westeurope", "os_type": "Linux", "sku_name": "P1v3", "worker_count": 2}),
        c("azurerm_app_service_plan.legacy", "azurerm", {"name": "legacy", "location": "westeurope", "kind": "Windows",
            "sku": [{"tier": "Standard", "size": "S1", "capacity": 2}]}),
        c("azurerm_service_plan.consumption", "azurerm", {"name": "fn", "location": "westeurope", "os_type": "Linux", "sku_name": "Y1"}),
        c("azurerm_redis_cache.cache", "azurerm", {"name": "cache", "location": "westeurope", "sku_name": "Standard", "family": "C", "capacity": 1}),
        c("azurerm_container_group.aci", "azurerm", {"name": "aci", "location": "westeurope", "os_type": "Linux",
            "container": [{"name": "a", "cpu": 1, "memory": 1.5}, {"name": "b", "cpu": 0.5, "memory": 0.5}]}),
        c("azurerm_container_app_environment.env", "azurerm", {"name": "env", "location": "westeurope"}),
        c("azurerm_container_app.app", "azurerm", {"name": "app",
            "template": [{"min_replicas": 2, "container": [{"name": "a", "cpu": 0.5, "memory": "1Gi"}]}]},
          {"container_app_environment_id": {"references": ["azurerm_container_app_environment.env.id", "azurerm_container_app_environment.env"]}}),
        c("azurerm_virtual_machine_scale_set.classic", "azurerm", {"name": "classic", "location": "westeurope",
            "sku": [{"name": "Standard_D2s_v3", "capacity": 3}],
            "storage_profile_data_disk": [{"lun": 0, "disk_size_gb": 64, "managed_disk_type": "Premium_LRS"}]}),
        c("azurerm_orchestrated_virtual_machine_scale_set.flex", "azurerm", {"name": "flex", "location": "westeurope",
            "sku_name": "Standard_D2s_v3", "instances": 2, "os_disk": [{"storage_account_type": "Premium_LRS", "disk_size_gb": 64}]}),
        c("azurerm_storage_account.sa", "azurerm", {"name": "sa", "location": "westeurope"}),
        c("azurerm_cosmosdb_account.db", "azurerm", {"name": "db", "location": "westeurope"}),
    ]
    # the AlloyDB cluster the instance refers to (its location is the instance's region)
    rs.append(c("google_alloydb_cluster.main", "google", {"cluster_id": "main", "location": "europe-west1"}))
    return build(rs, provider_config=CFG)


if __name__ == "__main__":
    write("testdata/carbon/coverage.json", coverage())
