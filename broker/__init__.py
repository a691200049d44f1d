"""Brokers: the embedded MQTT broker, external broker configuration, LAN discovery."""
