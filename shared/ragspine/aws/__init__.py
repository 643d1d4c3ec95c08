"""AWS adapters: the only package that imports boto3 or opensearch-py."""
