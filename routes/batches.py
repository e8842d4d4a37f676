from flask import Blueprint

bp = Blueprint("batches", __name__)
