"""The app's screens: menu, settings, local game setup, game screens and their dialogs."""
