"""The Knowledge Gateway of seed 003: spaces, documents, versions and operations behind ACL and audit."""
