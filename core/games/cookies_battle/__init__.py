"""Cookies Battle: trick-taking with cookie pieces, magic markers and the tummy ache."""
