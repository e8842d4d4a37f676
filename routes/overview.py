from flask import Blueprint

bp = Blueprint("overview", __name__)
