from flask import Blueprint

bp = Blueprint("inventory", __name__)
