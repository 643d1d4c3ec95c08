"""The names of a domain folder's files (what ``domain check`` validates and ``domain publish`` stores)."""

DOMAIN = "domain.yaml"
GLOSSARY = "glossary.yaml"
SCREENING = "screening.yaml"
INTENT = "intent.yaml"
LIBRARIES = "libraries.yaml"
FAQ = "faq.yaml"
DOMAIN_FILES = (DOMAIN, GLOSSARY, SCREENING, INTENT, LIBRARIES, FAQ)
