from flask import Blueprint

bp = Blueprint("stocktakings", __name__)
