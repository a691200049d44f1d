"""Cake Party."""
